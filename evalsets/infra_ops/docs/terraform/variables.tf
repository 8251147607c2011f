variable "env" {
  type = string
}

variable "region" {
  type    = string
  default = "eu-west-2" # London only, see docs/adr/0002
}

variable "vpc_cidr" {
  type    = string
  default = "10.99.0.0/16"
}

variable "eks_version" {
  type    = string
  default = "1.30"
}

variable "node_instance_types" {
  type    = list(string)
  default = ["t3.large"]
}

variable "node_min" {
  type    = number
  default = 2
}

variable "node_max" {
  type    = number
  default = 4
}

# --- database ---

variable "db_instance_class" {
  type    = string
  default = "db.t4g.medium"
}

variable "db_engine_version" {
  type    = string
  default = "16.4"
}

variable "db_allocated_storage_gb" {
  type    = number
  default = 50
}

variable "db_max_allocated_storage_gb" {
  type    = number
  default = 200
}

variable "db_multi_az" {
  type    = bool
  default = false
}

variable "db_backup_retention_days" {
  type    = number
  default = 7
}

variable "db_deletion_protection" {
  type    = bool
  default = true
}

# --- storage ---

variable "invoice_pdf_ia_after_days" {
  type    = number
  default = 90
}

variable "alb_log_expire_days" {
  type    = number
  default = 400
}

variable "domain" {
  type    = string
  default = "tallybird.example.com"
}
