"""The store's migrations, one file per revision, each complete in itself."""
