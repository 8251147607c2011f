module "db" {
  source = "./modules/rds"

  identifier         = "${local.name}-pg"
  instance_class     = var.db_instance_class
  engine_version     = var.db_engine_version
  allocated_storage  = var.db_allocated_storage_gb
  max_storage        = var.db_max_allocated_storage_gb
  multi_az           = var.db_multi_az
  backup_retention   = var.db_backup_retention_days
  deletion_protection = var.db_deletion_protection

  subnet_ids         = aws_subnet.db[*].id
  security_group_ids = [aws_security_group.db.id]

  # UTC. Backup 00:00-00:45 (01:00 BST) is before the worker's recurring-invoices job,
  # maintenance Sunday early morning when traffic is lowest.
  backup_window      = "00:00-00:45"
  maintenance_window = "sun:05:00-sun:06:00"

  parameters = {
    "log_min_duration_statement" = "500"
    "idle_in_transaction_session_timeout" = "60000"
    "max_connections" = "500"
  }
}
