# Nightly backups of web1 kept for two weeks: the apply that creates the policy takes the first backup; a plan
# that finds the latest older than a day plans the next (incremental). Between applies a timer on the host runs
#   virtseed backup create --dir /srv/backups web1 && virtseed backup prune --dir /srv/backups --keep 14 --uri qemu:///system web1
resource "virtseed_backup_policy" "web1" {
  domain  = "web1" # a domain name (e.g. virtseed_domain.web1.name)
  dir     = "/srv/backups"
  keep    = 14
  max_age = 86400 # seconds
}
