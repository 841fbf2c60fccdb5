# A domain by name or by UUID.
terraform import virtseed_domain.web1 web1
terraform import virtseed_domain.web1 5b6c0c1e-8f37-4a53-9c1e-2f0d7a3b9e11
