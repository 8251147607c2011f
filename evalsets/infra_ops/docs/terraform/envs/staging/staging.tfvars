env      = "staging"
vpc_cidr = "10.30.0.0/16"

node_instance_types = ["t3.large"]
node_min            = 2
node_max            = 3

bastion_ip      = "10.30.0.10"
staging_alb_dns = "k8s-tallybir-staging-4f1c2a.eu-west-2.elb.amazonaws.com"

# --- database ---
db_instance_class           = "db.t4g.medium"
db_allocated_storage_gb     = 100
db_max_allocated_storage_gb = 200
db_multi_az                 = false
db_backup_retention_days    = 3
db_deletion_protection      = false

invoice_pdf_ia_after_days = 30
alb_log_expire_days       = 30
