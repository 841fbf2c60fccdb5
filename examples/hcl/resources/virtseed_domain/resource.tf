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

# A workstation-style guest with the devices of docs/devices.md: a VNC display on localhost (display_uri says
# where), a TPM 2.0 (swtpm), a virtiofs share, a virtio RNG, a watchdog, a tablet, a topology, and the escape
# hatch for what has no typed attribute (an ICH9 sound card).
resource "virtseed_domain" "workstation" {
  name     = "ws1"
  memory   = 2048
  vcpu     = 2
  title    = "Workstation 1"
  metadata = { owner = "team-a" }
  on_crash = "preserve"

  cpu_topology {
    sockets = 1
    cores   = 2
    threads = 1
  }

  disk {
    volume_id = virtseed_volume.root.id
    cache     = "none"
    io        = "native"
    discard   = "unmap"
  }

  network_interface {
    user = true
  }

  graphics {
    type     = "vnc"
    password = "s3cret" # sensitive; changing it is live
  }
  tpm {}
  filesystem {
    source = "/srv/projects"
    target = "projects" # in the guest: mount -t virtiofs projects /mnt/projects
  }
  rng {}
  watchdog {
    action = "reset"
  }
  input {
    type = "tablet"
  }

  xml {
    devices = "<sound model='ich9'/>"
  }
}

output "ws1_display" {
  value = virtseed_domain.workstation.graphics[0].display_uri # e.g. vnc://127.0.0.1:5901
}
