# An isolated network (no forwarding: guests reach each other and the host, nothing else) with DHCP,
# a fixed address for web1 and a DNS name for a database.
resource "virtseed_network" "lab" {
  name   = "lab"
  domain = "lab.test"

  ip {
    address = "192.168.150.1/24"
    dhcp_range {
      start = "192.168.150.100"
      end   = "192.168.150.199"
    }
  }

  # Static hosts and DNS entries change in place on the running network.
  dhcp_host {
    mac      = "52:54:00:15:00:10"
    hostname = "web1"
    ip       = "192.168.150.10"
  }
  dns_host {
    ip        = "192.168.150.20"
    hostnames = ["db"]
  }
}
