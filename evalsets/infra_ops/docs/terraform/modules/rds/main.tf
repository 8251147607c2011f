variable "identifier" { type = string }
variable "instance_class" { type = string }
variable "engine_version" { type = string }
variable "allocated_storage" { type = number }
variable "max_storage" { type = number }
variable "multi_az" { type = bool }
variable "backup_retention" { type = number }
variable "deletion_protection" { type = bool }
variable "subnet_ids" { type = list(string) }
variable "security_group_ids" { type = list(string) }
variable "backup_window" { type = string }
variable "maintenance_window" { type = string }

variable "parameters" {
  type    = map(string)
  default = {}
}

variable "storage_type" {
  type    = string
  default = "gp3"
}

variable "performance_insights" {
  type    = bool
  default = true
}

locals {
  major = split(".", var.engine_version)[0]
}

resource "aws_db_subnet_group" "this" {
  name       = var.identifier
  subnet_ids = var.subnet_ids
}

resource "aws_db_parameter_group" "this" {
  name   = "${var.identifier}-pg${local.major}"
  family = "postgres${local.major}"

  dynamic "parameter" {
    for_each = var.parameters
    content {
      name         = parameter.key
      value        = parameter.value
      apply_method = "pending-reboot"
    }
  }

  lifecycle {
    create_before_destroy = true
  }
}

resource "aws_db_instance" "this" {
  identifier     = var.identifier
  engine         = "postgres"
  engine_version = var.engine_version
  instance_class = var.instance_class

  allocated_storage     = var.allocated_storage
  max_allocated_storage = var.max_storage
  storage_type          = var.storage_type
  storage_encrypted     = true

  db_name  = "tallybird"
  username = "tallybird_admin"
  # password generated and kept by RDS in Secrets Manager, never in state
  manage_master_user_password = true

  multi_az               = var.multi_az
  db_subnet_group_name   = aws_db_subnet_group.this.name
  vpc_security_group_ids = var.security_group_ids
  parameter_group_name   = aws_db_parameter_group.this.name
  publicly_accessible    = false

  backup_retention_period = var.backup_retention
  backup_window           = var.backup_window
  maintenance_window      = var.maintenance_window
  copy_tags_to_snapshot   = true

  deletion_protection       = var.deletion_protection
  skip_final_snapshot       = false
  final_snapshot_identifier = "${var.identifier}-final"

  performance_insights_enabled = var.performance_insights
  auto_minor_version_upgrade   = false
  allow_major_version_upgrade  = false

  enabled_cloudwatch_logs_exports = ["postgresql"]
}

output "endpoint" {
  value = aws_db_instance.this.address
}

output "arn" {
  value = aws_db_instance.this.arn
}
