"""Model manifest and locator: which model fills each role, where its files come from, checksums."""
