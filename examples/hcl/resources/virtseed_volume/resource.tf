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
