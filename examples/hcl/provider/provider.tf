terraform {
  required_providers {
    virtseed = {
      source  = "virtseed/virtseed"
      version = "0.1.0"
    }
  }
}

# The local system daemon. Remote hosts: qemu+ssh://user@host/system, qemu+tls://host/system.
provider "virtseed" {
  uri = "qemu:///system"
}
