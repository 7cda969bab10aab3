def hot():
    s = 0
    for i in range(3000000):
        s += i
    return s
def cold():
    s = 0
    for i in range(300000):
        s += i
    return s
def main():
    for _ in range(8):
        hot(); cold()
main()
