// hotlines entry point (placeholder).
int main() { return 0; }
