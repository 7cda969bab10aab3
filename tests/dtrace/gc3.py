import gc
for i in range(3):
    gc.collect()
