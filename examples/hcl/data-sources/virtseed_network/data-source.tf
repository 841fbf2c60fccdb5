# A network the host already has (libvirt's `default`), by name.
data "virtseed_network" "default" {
  name = "default"
}

output "default_network" {
  value = "${data.virtseed_network.default.bridge} ${join(", ", data.virtseed_network.default.addresses)} (${data.virtseed_network.default.mode}, active ${data.virtseed_network.default.active})"
}
