"""Turning folders into documents: scanner (walk, ignore rules, content hash), extract, chunker, watcher."""
