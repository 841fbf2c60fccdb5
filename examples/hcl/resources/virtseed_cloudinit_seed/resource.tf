resource "virtseed_cloudinit_seed" "web1" {
  pool        = "default"
  name        = "web1-seed.iso"
  hostname    = "web1"
  public_keys = ["ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIExampleKeyOnlyForTheDocs me@laptop"]

  cloud_config = jsonencode({
    packages = ["nginx"]
    runcmd   = ["systemctl enable --now nginx"]
  })

  environment = {
    APP_ENV = "production"
  }

  file {
    path        = "/etc/app.conf"
    content     = "port=8080\n"
    owner       = "root:root"
    permissions = "0640"
  }

  mount {
    device      = "vdb"
    mount_point = "/data"
    fs_type     = "ext4"
  }

  network {
    version = 2
    interface {
      name        = "eth0"
      addresses   = ["192.168.122.10/24"]
      gateway4    = "192.168.122.1"
      nameservers = ["192.168.122.1"]
    }
  }

  user_data_part {
    content_type = "text/x-shellscript"
    filename     = "hello.sh"
    content      = "#!/bin/sh\necho hello from web1 > /run/hello\n"
  }
}

# The instance-id (derived from the content unless instance_id is set) is known at plan time.
output "web1_instance_id" {
  value = virtseed_cloudinit_seed.web1.instance_id
}
