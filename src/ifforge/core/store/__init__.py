"""What a run keeps on disk: versioned content-addressed artifacts (`store`), the kept items of a
chain of stages (`kept`) and the lock of one writer per benchmark (`runlock`)."""
