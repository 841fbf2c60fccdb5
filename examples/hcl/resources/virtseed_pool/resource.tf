# A directory pool of its own for one project's volumes: the directory is created when the pool first starts and
# removed with the pool. Volumes refer to the pool's name, so Terraform creates the pool before them and deletes
# them before it.
resource "virtseed_pool" "images" {
  name = "web-images"
  path = "/var/lib/libvirt/images/web-images"
}

resource "virtseed_volume" "data" {
  pool     = virtseed_pool.images.name
  name     = "web1-data.qcow2"
  capacity = 20 * 1024 * 1024 * 1024
}

# An NFS export mounted at /mnt/nfs-images (the mount point is created when missing).
resource "virtseed_pool" "nfs" {
  name          = "nfs-images"
  type          = "netfs"
  path          = "/mnt/nfs-images"
  source_host   = "nfs.example.net"
  source_dir    = "/srv/images"
  source_format = "nfs"
}

# An LVM volume group: an existing one by name, or a new one built on empty disks (never over existing data).
resource "virtseed_pool" "lvm" {
  name           = "vg-guests"
  type           = "logical"
  source_devices = ["/dev/sdb", "/dev/sdc"]
}
