# A domain by name or by UUID.
terraform import virtseed_domain.web1 web1
terraform import virtseed_domain.web1 5b6c0c1e-8f37-4a53-9c1e-2f0d7a3b9e11
# A domain on one of the provider's host blocks: <host>:<name or UUID>.
terraform import virtseed_domain.web2 kvm2:web2
# What import cannot know: how the configuration names a NIC's network. libvirt keeps the network's name, so the
# imported `network_interface[*].network` is the name; a configuration that gives the UUID (virtseed_network.x.id)
# plans an update of it from the name to the UUID after import (the same network). Give the name instead
# (virtseed_network.x.name, or "default"), or apply that update. Likewise libvirt keeps disks in target order (vda,
# vdb, sda, …) and writes no `cache = "default"`: a configuration that lists its disks in another order, or gives
# `cache = "default"`, plans an update of `disk` after import (the same disks; after that apply, reads keep the
# configuration's order and spelling). The provider's own settings libvirt does not keep
# (`shutdown_timeout`, `wait_for`, `wait_timeout`, `snapshot_before`, `snapshot_keep`) start at their defaults, and a
# display `password` is not read (libvirt shows it only to a secure read).
