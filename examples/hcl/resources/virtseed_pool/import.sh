# A pool by name or by UUID.
terraform import virtseed_pool.images web-images
terraform import virtseed_pool.images 5b3c0e2a-8f4d-4c21-9a77-1e2f3a4b5c6d
