terraform {
  required_providers {
    virtseed = {
      source  = "virtseed/virtseed"
      version = "0.1.0"
    }
  }
}

# The local system daemon is the default host (resources without `host`). Remote hosts:
# qemu+ssh://user@host/system, qemu+tls://host/system. Named hosts are chosen with `host = "kvm2"`, or by a
# virtseed_placement; each is connected to the first time a resource needs it.
provider "virtseed" {
  uri = "qemu:///system"

  host {
    name = "kvm2"
    uri  = "qemu+tls://kvm2.example.net/system"
  }
  host {
    name       = "kvm3"
    uri        = "qemu+ssh://root@kvm3.example.net/system?keyfile=/home/ops/.ssh/id_ed25519"
    max_memory = 65536 # MiB placements may commit there
  }
}
