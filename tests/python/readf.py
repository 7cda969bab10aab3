import os


data = open("/etc/hostname").read()
print(len(data), os.getpid() > 0)
