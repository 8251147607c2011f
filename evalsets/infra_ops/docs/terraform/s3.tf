# --- invoice PDFs (customer-facing, presigned links) ---
resource "aws_s3_bucket" "invoices" {
  bucket = "tallybird-${var.env}-invoices"
}

resource "aws_s3_bucket_versioning" "invoices" {
  bucket = aws_s3_bucket.invoices.id
  versioning_configuration { status = "Enabled" }
}

resource "aws_s3_bucket_lifecycle_configuration" "invoices" {
  bucket = aws_s3_bucket.invoices.id

  rule {
    id     = "pdfs-to-glacier-ir"
    status = "Enabled"
    filter { prefix = "pdf/" }

    # customers rarely reopen an invoice after the quarter closes;
    # Glacier IR still serves a presigned GET in milliseconds
    transition {
      days          = var.invoice_pdf_ia_after_days
      storage_class = "GLACIER_IR"
    }
    # no expiry: HMRC wants 6 years and we keep them for the life of the account
  }

  rule {
    id     = "old-versions"
    status = "Enabled"
    filter {}
    noncurrent_version_expiration { noncurrent_days = 30 }
  }
}

resource "aws_s3_bucket_public_access_block" "invoices" {
  bucket                  = aws_s3_bucket.invoices.id
  block_public_acls       = true
  block_public_policy     = true
  ignore_public_acls      = true
  restrict_public_buckets = true
}

# --- nightly pg_dump from bastion-1 (scripts/backup-db.sh) ---
resource "aws_s3_bucket" "db_dumps" {
  bucket = "tallybird-${var.env}-db-dumps"
}

resource "aws_s3_bucket_lifecycle_configuration" "db_dumps" {
  bucket = aws_s3_bucket.db_dumps.id
  rule {
    id     = "expire-dumps"
    status = "Enabled"
    filter {}
    expiration { days = 60 }
  }
}

resource "aws_s3_bucket_server_side_encryption_configuration" "db_dumps" {
  bucket = aws_s3_bucket.db_dumps.id
  rule {
    apply_server_side_encryption_by_default {
      sse_algorithm     = "aws:kms"
      kms_master_key_id = aws_kms_key.backups.arn
    }
  }
}

resource "aws_kms_key" "backups" {
  description             = "tallybird ${var.env} db dumps"
  deletion_window_in_days = 30
  enable_key_rotation     = true
}

# --- ALB access logs ---
resource "aws_s3_bucket" "alb_logs" {
  bucket = "tallybird-${var.env}-alb-logs"
}

resource "aws_s3_bucket_lifecycle_configuration" "alb_logs" {
  bucket = aws_s3_bucket.alb_logs.id
  rule {
    id     = "expire"
    status = "Enabled"
    filter {}
    expiration { days = var.alb_log_expire_days }
  }
}

# --- static assets for web (behind CloudFront) ---
resource "aws_s3_bucket" "assets" {
  bucket = "tallybird-${var.env}-assets"
}
