# A base image uploaded once (by hand or by another configuration), used as the backing volume of a new overlay.
data "virtseed_volume" "base" {
  pool = "default"
  name = "debian-12-base.qcow2"
}

resource "virtseed_volume" "root" {
  pool           = "default"
  name           = "web1-root.qcow2"
  backing_volume = data.virtseed_volume.base.id
  capacity       = max(data.virtseed_volume.base.capacity, 10 * 1024 * 1024 * 1024)
}
