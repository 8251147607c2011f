"""Analysis code for the slx3 drought project (Ruuskanen lab).

Modules: load_data (instrument exports -> tidy frames), qc (range checks and outliers), watering
(gravimetric protocol helpers), stats_tests (per-day tests), power_analysis, aba_quant (LC-MS),
plot_figures, pipeline (runs everything for one run config).
"""

__version__ = "0.6.1"
