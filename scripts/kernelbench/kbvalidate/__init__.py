"""kbvalidate — the pieces of validate.py: streaming .npy files to the device, and scheduling
problems in parallel under a memory budget."""
