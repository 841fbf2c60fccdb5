# A domain this configuration does not manage, e.g. a database VM another team runs.
data "virtseed_domain" "db" {
  name = "db1"
}

output "db" {
  value = "${data.virtseed_domain.db.name} is ${data.virtseed_domain.db.state} at ${coalesce(data.virtseed_domain.db.ip_address, "no address")}"
}
