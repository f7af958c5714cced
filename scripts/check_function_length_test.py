#!/usr/bin/python3
"""Self-test of check_function_length.py on small C++ snippets (the ctest
code_health.function_length_scanner runs it; pytest is not required).

    scripts/check_function_length.py --self-test
"""
import contextlib
import io
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import check_function_length as scanner  # noqa: E402

# (what it checks, C++ source, [(name, first line, last line), ...])
CASES = [
    ('a plain function spans its name to its closing brace',
     'int Add(int a, int b) {\n  return a + b;\n}\n',
     [('Add', 1, 3)]),
    ('braces in comments, strings, raw strings and char literals do not count',
     'void F() {\n'
     '  // }\n'
     '  /* } { */\n'
     '  const char* s = "}\\"{";\n'
     '  const char* r = R"x(})" }\n{)x";\n'
     "  char c = '}'; char q = '\\'';\n"
     "  int n = 1'000'000; double d = 0x1p+3;\n"
     '}\n'
     'void G() {}\n',
     [('F', 1, 9), ('G', 10, 10)]),
    ('a lambda inside a function is part of it',
     'void Outer() {\n'
     '  auto f = [&](int x) {\n'
     '    return x;\n'
     '  };\n'
     '  f(1);\n'
     '}\n',
     [('Outer', 1, 6)]),
    ('a namespace-scope lambda is a function of its own, a table is not',
     'namespace a::b {\n'
     'const auto kTwice = [](int x) {\n'
     '  return 2 * x;\n'
     '};\n'
     'const int kTable[] = {\n'
     '  1, 2, {3},\n'
     '};\n'
     'enum class Mode { kA, kB };\n'
     '}  // namespace a::b\n',
     [('lambda kTwice', 2, 4)]),
    ('members, access labels, constructor brace initializers, operators',
     'class Widget : public Base<int> {\n'
     ' public:\n'
     '  Widget() : size_{0}, name_("w") {\n'
     '    Init();\n'
     '  }\n'
     '  Widget& operator=(Widget&& o) noexcept { return *this; }\n'
     ' private:\n'
     '  int size_{0};\n'
     '  struct Inner { int Get() const { return 1; } };\n'
     '};\n'
     'Widget::~Widget() {\n'
     '}\n',
     [('Widget', 3, 5), ('operator=', 6, 6), ('Get', 9, 9), ('Widget::~Widget', 11, 12)]),
    ('templates, trailing return types, preprocessor braces, extern "C"',
     'template <typename T, int N = 2>\n'
     'auto Sum(T a) -> T {\n'
     '#define OPEN {\n'
     '  return a;\n'
     '}\n'
     'extern "C" {\n'
     'int CEntry(void) { return 0; }\n'
     '}\n',
     [('Sum', 2, 5), ('CEntry', 7, 7)]),
]


def check_case(title, source, expected):
    found = [(f.name, f.first_line, f.last_line)
             for f in scanner.find_functions(scanner.tokenize(source))]
    if found != expected:
        return f'{title}:\n    expected {expected}\n    found    {found}'
    return None


def report_of(lengths, limit):
    """check_function_length's exit code and output for functions of these lengths."""
    functions = [scanner.Function('f.cc', f'F{i}', 1, n) for i, n in enumerate(lengths)]
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = scanner.report(functions, limit, 5)
    return code, out.getvalue()


def check_report():
    failures = []
    code, out = report_of([10, 200, 30, 40, 50, 60, 70], 150)
    if code != 1 or 'F1 is 200 lines (limit 150)' not in out:
        failures.append(f'a 200-line function passes a 150-line limit: exit {code}\n{out}')
    listed = [line.split()[-1] for line in out.splitlines() if line.startswith('  ')]
    if listed != ['F1', 'F6', 'F5', 'F4', 'F3']:
        failures.append(f'the longest five are not listed longest first: {listed}')
    code, out = report_of([10, 150], 150)
    if code != 0 or 'longest 2 of 2 functions' not in out:
        failures.append(f'functions within the limit fail it: exit {code}\n{out}')
    return failures


def run_self_test():
    failures = [msg for msg in (check_case(*case) for case in CASES) if msg]
    failures += check_report()
    for msg in failures:
        print('FAIL', msg)
    print(f'check_function_length self-test: {len(CASES) + 3 - len(failures)} passed, '
          f'{len(failures)} failed')
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(run_self_test())
