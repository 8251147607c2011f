env      = "prod"
vpc_cidr = "10.20.0.0/16"

node_instance_types = ["m6i.xlarge"]
node_min            = 3
node_max            = 9

bastion_ip = "10.20.0.10"

# --- database ---
# r6g.large since the 2024 month-end CPU pegging (postmortem in old wiki); revisit after pgbouncer
db_instance_class           = "db.r6g.large"
db_allocated_storage_gb     = 400
db_max_allocated_storage_gb = 1000
db_multi_az                 = true
# PITR window. Was 7, raised 2024-12 (PLAT-212)
db_backup_retention_days = 14

invoice_pdf_ia_after_days = 90
alb_log_expire_days       = 400
