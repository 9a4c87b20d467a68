/* A program that only links the objects given with it. */
int main(void) { return 0; }
