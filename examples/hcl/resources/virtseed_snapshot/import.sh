# A snapshot by DOMAIN/SNAPSHOT, the domain by name or by UUID.
terraform import virtseed_snapshot.before_upgrade web1/before-upgrade
terraform import virtseed_snapshot.before_upgrade 5b6c0c1e-8f37-4a53-9c1e-2f0d7a3b9e11/before-upgrade
