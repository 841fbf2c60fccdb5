# A restore point of the domain web1 before an upgrade. Of a running BIOS guest it holds the memory too (a revert
# resumes the guest where it was); of a shut-off guest its disks. Revert with:
#   virtseed snapshot revert --uri qemu:///system web1 before-upgrade [--start]
resource "virtseed_snapshot" "before_upgrade" {
  domain_id   = "web1" # a domain name, or a virtseed_domain's id (virtseed_domain.web1.id)
  name        = "before-upgrade"
  description = "web1 before the 2.0 upgrade"
}
