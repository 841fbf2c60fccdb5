# A domain by name or by UUID.
terraform import virtseed_domain.web1 web1
terraform import virtseed_domain.web1 5b6c0c1e-8f37-4a53-9c1e-2f0d7a3b9e11
# A domain on one of the provider's host blocks: <host>:<name or UUID>.
terraform import virtseed_domain.web2 kvm2:web2
