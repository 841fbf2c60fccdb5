# A volume by POOL/NAME, or by its key (the host path for dir pools).
terraform import virtseed_volume.root default/web1-root.qcow2
terraform import virtseed_volume.data /var/lib/libvirt/images/web1-data.qcow2
# A volume on one of the provider's host blocks: <host>:<POOL/NAME or key>.
terraform import virtseed_volume.root2 kvm2:default/web2-root.qcow2
# What import cannot know: where the bytes came from. `source`, `sha256`, `checksum_url` (and its signature) and
# `backing_volume` are null in the imported state, and `source`, `sha256` and `backing_volume` force a replacement,
# so a configuration that sets them plans to replace the volume (upload it again) after import. To keep the
# imported volume as it is, add lifecycle { ignore_changes = [source, sha256, backing_volume] } to the resource.
