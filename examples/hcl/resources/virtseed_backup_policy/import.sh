# A policy by its id: <dir>/<domain>, the folder of the domain's backups (the domain must exist, dir must be a
# directory on the host).
terraform import virtseed_backup_policy.web1 /srv/backups/web1
# A policy of a domain on one of the provider's host blocks: <host>:<dir>/<domain>.
terraform import virtseed_backup_policy.web2 kvm2:/srv/backups/web2
# What import cannot know: `keep` and `max_age` (the host keeps no record of them). They are null in the imported
# state; the plan after import sets them from the configuration, an update in place that prunes to `keep` when the
# folder holds more backups than that.
