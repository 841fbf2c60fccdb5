# Two web servers never on one host (anti-affinity), each on the host with the least memory committed (spread).
# The second placement is planned after the first (depends_on), so it sees the first one's choice.
resource "virtseed_placement" "web1" {
  name          = "web1"
  memory        = 2048
  vcpu          = 2
  anti_affinity = "web"
}

resource "virtseed_placement" "web2" {
  name          = "web2"
  memory        = 2048
  vcpu          = 2
  anti_affinity = "web"
  depends_on    = [virtseed_placement.web1]
}

# The domain (and its volumes and seed) follow the placement's host.
resource "virtseed_domain" "web1" {
  name          = "web1"
  host          = virtseed_placement.web1.host
  memory        = 2048
  vcpu          = 2
  anti_affinity = virtseed_placement.web1.anti_affinity
  running       = false
}

# A database pinned to one host; changing `pin` moves it there (live, when it runs and both hosts answer).
resource "virtseed_placement" "db" {
  name   = "db1"
  memory = 8192
  hosts  = ["kvm2", "kvm3"]
  pin    = "kvm3"
}
