resource "virtseed_ignition" "node1" {
  pool = "default"
  name = "node1.ign"
  content = jsonencode({
    ignition = { version = "3.4.0" }
    passwd = {
      users = [{
        name              = "core"
        sshAuthorizedKeys = ["ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIExampleKeyOnlyForTheDocs me@laptop"]
      }]
    }
    storage = {
      files = [{
        path     = "/etc/hostname"
        mode     = 420
        contents = { source = "data:,node1" }
      }]
    }
  })
}
