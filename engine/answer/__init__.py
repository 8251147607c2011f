"""Answers under the cite-or-refuse contract: gate, context packing, generators, verification, conflicts."""
