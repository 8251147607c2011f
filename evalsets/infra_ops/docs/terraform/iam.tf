# GitHub Actions OIDC
resource "aws_iam_openid_connect_provider" "github" {
  url             = "https://token.actions.githubusercontent.com"
  client_id_list  = ["sts.amazonaws.com"]
  thumbprint_list = ["6938fd4d98bab03faadb97b34396831e3780aea1"]
}

data "aws_iam_policy_document" "gha_deploy_assume" {
  statement {
    actions = ["sts:AssumeRoleWithWebIdentity"]
    principals {
      type        = "Federated"
      identifiers = [aws_iam_openid_connect_provider.github.arn]
    }
    condition {
      test     = "StringLike"
      variable = "token.actions.githubusercontent.com:sub"
      # prod role only from the production environment (i.e. after approval)
      values = var.env == "prod" ? ["repo:tallybird/tallybird-infra:environment:production"] : ["repo:tallybird/tallybird-infra:*"]
    }
  }
}

resource "aws_iam_role" "gha_deploy" {
  name               = "gha-deploy-${var.env}"
  assume_role_policy = data.aws_iam_policy_document.gha_deploy_assume.json
}

resource "aws_iam_role_policy_attachment" "gha_deploy_eks" {
  role       = aws_iam_role.gha_deploy.name
  policy_arn = "arn:aws:iam::aws:policy/AmazonEKSClusterPolicy"
}

# worker: SQS + invoices bucket (IRSA)
data "aws_iam_policy_document" "worker" {
  statement {
    actions   = ["sqs:ReceiveMessage", "sqs:DeleteMessage", "sqs:ChangeMessageVisibility", "sqs:SendMessage", "sqs:GetQueueAttributes"]
    resources = [aws_sqs_queue.jobs.arn, aws_sqs_queue.jobs_dlq.arn]
  }
  statement {
    actions   = ["s3:PutObject", "s3:GetObject"]
    resources = ["${aws_s3_bucket.invoices.arn}/*"]
  }
}

resource "aws_iam_policy" "worker" {
  name   = "tallybird-${var.env}-worker"
  policy = data.aws_iam_policy_document.worker.json
}

# bastion: write db dumps only, no delete (lifecycle does that)
data "aws_iam_policy_document" "bastion_backup" {
  statement {
    actions   = ["s3:PutObject", "s3:GetObject", "s3:ListBucket"]
    resources = [aws_s3_bucket.db_dumps.arn, "${aws_s3_bucket.db_dumps.arn}/*"]
  }
}

resource "aws_iam_policy" "bastion_backup" {
  name   = "tallybird-${var.env}-bastion-backup"
  policy = data.aws_iam_policy_document.bastion_backup.json
}

# queues (ADR 0005)
resource "aws_sqs_queue" "jobs_dlq" {
  name                      = "tallybird-jobs-dlq"
  message_retention_seconds = 1209600
}

resource "aws_sqs_queue" "jobs" {
  name                       = "tallybird-jobs"
  visibility_timeout_seconds = 900
  receive_wait_time_seconds  = 20
  redrive_policy = jsonencode({
    deadLetterTargetArn = aws_sqs_queue.jobs_dlq.arn
    maxReceiveCount     = 5
  })
}
