# Linear mixed model for stomatal conductance, slx3 drought project.
# Author: Caspar Oyelowo (postdoc), January 2025; small edits by Ilse Marchbank.
#
# Usage: Rscript analysis/R/mixed_model.R config/run3.yaml
# Reads the QC'd long table written by the Python pipeline (data/<run>_gs_qc.csv, not kept in the
# project folder because it is large) and writes model tables next to the summaries.

suppressPackageStartupMessages({
  library(lme4)
  library(emmeans)
  library(readr)
})

args <- commandArgs(trailingOnly = TRUE)
cfg_path <- if (length(args) >= 1) args[1] else "config/run3.yaml"
run <- sub("\\.yaml$", "", basename(cfg_path))

gs <- read_csv(file.path("data", paste0(run, "_gs_qc.csv")), show_col_types = FALSE)
gs$genotype <- relevel(factor(gs$genotype), ref = "Col-0")
gs$treatment <- relevel(factor(gs$treatment), ref = "well_watered")
gs$day_f <- factor(gs$day)

# Log scale: the variance grows with the mean, and drought groups are much lower than controls.
# Plants are nested in trays; each plant is measured on every day, hence the plant intercept.
fit <- lmer(log(gs_mmol) ~ genotype * treatment * day_f + (1 | tray) + (1 | plant_id),
            data = gs, REML = TRUE)

print(summary(fit))

# Genotype contrasts within each treatment x day, back-transformed to ratios.
emm <- emmeans(fit, ~ genotype | treatment * day_f, type = "response")
ctr <- contrast(emm, method = "trt.vs.ctrl", ref = "Col-0", adjust = "dunnett")
write_csv(as.data.frame(ctr), file.path("data", paste0(run, "_lmm_contrasts.csv")))

# Singular fits happened in run 1 (only 4 trays); report rather than hide.
if (isSingular(fit)) {
  message("WARNING: singular fit; tray variance estimated at zero")
}

# Session info for the methods section
writeLines(capture.output(sessionInfo()), file.path("data", paste0(run, "_sessioninfo.txt")))

# ---------------------------------------------------------------------------
# Variance components, for the supplement
vc <- as.data.frame(VarCorr(fit))
write_csv(vc, file.path("data", paste0(run, "_lmm_varcomp.csv")))

# Residual checks: save plots, look at them, do not put them in the paper
png(file.path("data", paste0(run, "_lmm_residuals.png")), width = 2400, height = 1200, res = 300)
par(mfrow = c(1, 2))
plot(fitted(fit), resid(fit), xlab = "fitted", ylab = "residual", pch = 16, cex = 0.5)
abline(h = 0, lty = 2)
qqnorm(resid(fit), pch = 16, cex = 0.5)
qqline(resid(fit))
dev.off()
