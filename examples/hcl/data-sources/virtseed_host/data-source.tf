# The host's real capacity: give each VM a quarter of the free memory (at least 512 MiB), and UEFI where the host
# has it.
data "virtseed_host" "this" {}

locals {
  memory_mib = max(512, floor(data.virtseed_host.this.memory_free / 4))
  firmware   = contains(data.virtseed_host.this.firmware, "efi") ? "efi" : "bios"
}

output "host" {
  value = "${data.virtseed_host.this.hostname}: libvirt ${data.virtseed_host.this.libvirt_version}, QEMU ${data.virtseed_host.this.qemu_version}, ${data.virtseed_host.this.cpus} CPUs, ${data.virtseed_host.this.memory_total} MiB, KVM ${data.virtseed_host.this.kvm}"
}
