resource "virtseed_volume" "base" {
  pool   = "default"
  name   = "debian-12-base.qcow2"
  source = "/var/lib/libvirt/images/debian-12-genericcloud-amd64.qcow2"
}

resource "virtseed_volume" "root" {
  pool           = "default"
  name           = "web1-root.qcow2"
  backing_volume = virtseed_volume.base.id
  capacity       = 10 * 1024 * 1024 * 1024
}

resource "virtseed_cloudinit_seed" "web1" {
  pool     = "default"
  name     = "web1-seed.iso"
  hostname = "web1"
  cloud_config = jsonencode({
    packages = ["nginx"]
  })
}

resource "virtseed_domain" "web1" {
  name   = "web1"
  memory = 1024
  vcpu   = 2

  cloudinit_seed_id = virtseed_cloudinit_seed.web1.id
  instance_id       = virtseed_cloudinit_seed.web1.instance_id
  reprovision       = "reboot" # a new instance-id restarts the guest on the same disks

  disk {
    volume_id = virtseed_volume.root.id
  }

  # QEMU user networking with restrict=on: the guest reaches nothing outside the host.
  network_interface {
    user     = true
    restrict = true
  }
}
