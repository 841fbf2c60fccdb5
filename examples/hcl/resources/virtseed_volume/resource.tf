# A base volume uploaded from a cloud image, and a 10 GiB qcow2 overlay on it for one VM.
resource "virtseed_volume" "base" {
  pool   = "default"
  name   = "debian-12-base.qcow2"
  source = "/var/lib/libvirt/images/debian-12-genericcloud-amd64.qcow2"
}

# The same image by URL, pinned by the sha256 its publisher lists: the upload verifies the bytes as they stream
# and the apply fails, keeping no volume, when they differ.
resource "virtseed_volume" "pinned" {
  pool   = "default"
  name   = "debian-12-pinned.qcow2"
  source = "https://cloud.debian.org/images/cloud/bookworm/latest/debian-12-genericcloud-amd64.qcow2"
  sha256 = "0f3c4e5a6b7d8e9f00112233445566778899aabbccddeeff0011223344556677"
}

# The image verified against Debian's signed checksum file: the download must match the SHA512SUMS entry for its
# file name, and SHA512SUMS must carry a valid signature by Debian's cloud team key. The verified image is cached
# once per pool (a volume named by its digest); this volume, and any other on the same image, is an overlay on it.
variable "debian_cloud_key" {
  type        = string
  description = "The armored OpenPGP public key Debian signs its cloud image checksums with, e.g. file(\"debian-cloud.asc\")."
}

resource "virtseed_volume" "verified" {
  pool          = "default"
  name          = "debian-12-verified.qcow2"
  source        = "https://cloud.debian.org/images/cloud/bookworm/latest/debian-12-genericcloud-amd64.qcow2"
  checksum_url  = "https://cloud.debian.org/images/cloud/bookworm/latest/SHA512SUMS"
  signature_url = "https://cloud.debian.org/images/cloud/bookworm/latest/SHA512SUMS.sign"
  signature_key = var.debian_cloud_key
}

resource "virtseed_volume" "root" {
  pool           = "default"
  name           = "web1-root.qcow2"
  backing_volume = virtseed_volume.base.id
  capacity       = 10 * 1024 * 1024 * 1024
}

# An empty 20 GiB data disk.
resource "virtseed_volume" "data" {
  pool     = "default"
  name     = "web1-data.qcow2"
  format   = "qcow2"
  capacity = 20 * 1024 * 1024 * 1024
}
