# Put a volume into a pool this configuration does not manage, and refuse to plan when it lacks the space.
data "virtseed_pool" "default" {
  name = "default"
}

resource "virtseed_volume" "data" {
  pool     = data.virtseed_pool.default.name
  name     = "web1-data.qcow2"
  capacity = 20 * 1024 * 1024 * 1024

  lifecycle {
    precondition {
      condition     = data.virtseed_pool.default.available > 20 * 1024 * 1024 * 1024
      error_message = "Pool default has less than 20 GiB free."
    }
  }
}
