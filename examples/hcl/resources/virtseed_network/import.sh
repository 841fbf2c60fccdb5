# A network by name or by UUID.
terraform import virtseed_network.lab lab
terraform import virtseed_network.lab 0d1c4d4e-6f00-4a11-9f62-0a1b2c3d4e5f
# A network on one of the provider's host blocks: <host>:<name or UUID>.
terraform import virtseed_network.lan2 kvm2:lan
