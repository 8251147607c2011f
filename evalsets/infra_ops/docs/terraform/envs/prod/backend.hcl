bucket         = "tallybird-tfstate"
key            = "prod/terraform.tfstate"
region         = "eu-west-2"
dynamodb_table = "tallybird-tf-locks"
encrypt        = true
