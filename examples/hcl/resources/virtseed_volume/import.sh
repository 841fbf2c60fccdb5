# A volume by POOL/NAME, or by its key (the host path for dir pools).
terraform import virtseed_volume.root default/web1-root.qcow2
terraform import virtseed_volume.data /var/lib/libvirt/images/web1-data.qcow2
# A volume on one of the provider's host blocks: <host>:<POOL/NAME or key>.
terraform import virtseed_volume.root2 kvm2:default/web2-root.qcow2
