data "aws_route53_zone" "main" {
  name = var.domain
}

# edge nginx (edge-1/edge-2 EIPs) for prod; staging goes straight to its ALB
resource "aws_route53_record" "app" {
  count   = var.env == "prod" ? 1 : 0
  zone_id = data.aws_route53_zone.main.zone_id
  name    = "app.${var.domain}"
  type    = "A"
  ttl     = 300
  records = ["198.51.100.21", "198.51.100.22"]
}

resource "aws_route53_record" "api" {
  count   = var.env == "prod" ? 1 : 0
  zone_id = data.aws_route53_zone.main.zone_id
  name    = "api.${var.domain}"
  type    = "A"
  ttl     = 300
  records = ["198.51.100.21", "198.51.100.22"]
}

resource "aws_route53_record" "staging" {
  for_each = var.env == "staging" ? toset(["staging", "api.staging"]) : toset([])
  zone_id  = data.aws_route53_zone.main.zone_id
  name     = "${each.key}.${var.domain}"
  type     = "CNAME"
  ttl      = 60
  records  = [var.staging_alb_dns]
}

variable "staging_alb_dns" {
  type    = string
  default = ""
}

# status page is hosted by the vendor
resource "aws_route53_record" "status" {
  count   = var.env == "prod" ? 1 : 0
  zone_id = data.aws_route53_zone.main.zone_id
  name    = "status.${var.domain}"
  type    = "CNAME"
  ttl     = 3600
  records = ["tallybird.statuspage.example.net"]
}

# internal zone for ops hosts
resource "aws_route53_zone" "internal" {
  count = var.env == "prod" ? 1 : 0
  name  = "tallybird.internal"
  vpc { vpc_id = aws_vpc.main.id }
}

resource "aws_route53_record" "bastion" {
  count   = var.env == "prod" ? 1 : 0
  zone_id = aws_route53_zone.internal[0].zone_id
  name    = "bastion.tallybird.internal"
  type    = "A"
  ttl     = 300
  records = [var.bastion_ip]
}
