# Quick-look plots of leaf water potential (drought day 14), one panel per run.
# Ilse Marchbank. Not used for paper figures (those come from analysis/plot_figures.py).

library(readr)
library(ggplot2)

runs <- c("run3")  # add "run2" once its table is exported from the thesis spreadsheet
psi <- do.call(rbind, lapply(runs, function(r) {
  d <- read_csv(file.path("data", paste0(r, "_water_potential.csv")), show_col_types = FALSE)
  d$run <- r
  d
}))

# drop rows with no mean (groups that fell below the minimum n after QC)
psi <- psi[!is.na(psi$psi_leaf_mpa_mean), ]

p <- ggplot(psi, aes(x = genotype, y = psi_leaf_mpa_mean, fill = treatment)) +
  geom_col(position = position_dodge(width = 0.8), width = 0.7) +
  geom_errorbar(aes(ymin = psi_leaf_mpa_mean - psi_leaf_mpa_sd,
                    ymax = psi_leaf_mpa_mean + psi_leaf_mpa_sd),
                position = position_dodge(width = 0.8), width = 0.2) +
  facet_wrap(~ run) +
  scale_fill_manual(values = c(well_watered = "#8fb3d9", drought = "#c0504d")) +
  labs(y = "leaf water potential (MPa)", x = NULL) +
  theme_bw(base_size = 9)

ggsave("figures/quicklook_psi.png", p, width = 160, height = 80, units = "mm", dpi = 300)
