# A network by name or by UUID.
terraform import virtseed_network.lab lab
terraform import virtseed_network.lab 0d1c4d4e-6f00-4a11-9f62-0a1b2c3d4e5f
