#!/usr/bin/python3
"""Lists the C++ functions longer than a limit and always prints the longest five.

    scripts/check_function_length.py [--limit 150] [--top 5] [--exclude PATH]... PATH...
    scripts/check_function_length.py --self-test

PATHs are files or folders (searched for .cc, .cpp, .h, .hpp). A function's
length runs from the line of its name to the line of its closing brace.
Lambdas and local classes inside a function belong to it; a lambda at
namespace scope (or in a namespace-scope table) counts as a function of its
own. The scanner matches braces outside comments, string, raw string and
character literals and preprocessor lines. Exit 1 when a function exceeds
the limit, 2 on a bad argument. Standard library only (it runs in CI).
"""
import argparse
import os
import re
import sys

SOURCE_SUFFIXES = ('.cc', '.cpp', '.cxx', '.h', '.hpp')
RAW_STRING_PREFIXES = ('R', 'u8R', 'uR', 'UR', 'LR')
# Tokens after a parameter list that still precede a function body.
FUNCTION_QUALIFIERS = {'const', 'noexcept', 'override', 'final', 'mutable', 'volatile',
                       'try', '&', '&&', 'constexpr', 'consteval'}
# Identifiers before a '(' that do not name the function.
NOT_A_NAME = {'decltype', 'alignas', '__attribute__', 'noexcept', 'requires', 'sizeof',
              'alignof', 'static_assert', 'explicit', '__declspec'}
MULTI_CHAR_PUNCT = ('::', '->', '&&', '||', '==', '!=', '<=', '>=', '+=', '-=', '*=',
                    '/=', '%=', '&=', '|=', '^=', '<<', '>>', '++', '--')


class Token:
    __slots__ = ('text', 'line')

    def __init__(self, text, line):
        self.text = text
        self.line = line

    def __repr__(self):
        return f'{self.text}@{self.line}'


class Function:
    __slots__ = ('path', 'name', 'first_line', 'last_line')

    def __init__(self, path, name, first_line, last_line):
        self.path, self.name = path, name
        self.first_line, self.last_line = first_line, last_line

    @property
    def length(self):
        return self.last_line - self.first_line + 1


# ---- Lexing: the code's tokens, literals and comments reduced to placeholders.

def skip_quoted(src, i, quote):
    """Index after the literal opened by src[i] == quote (escapes honoured)."""
    i += 1
    while i < len(src) and src[i] != quote:
        if src[i] == '\\':
            i += 1
        elif src[i] == '\n':  # unterminated: stop at the line's end
            return i
        i += 1
    return i + 1


def skip_raw_string(src, i):
    """Index after the raw string whose opening quote is src[i]."""
    open_paren = src.find('(', i)
    if open_paren < 0:
        return len(src)
    delimiter = src[i + 1:open_paren]
    end = src.find(')' + delimiter + '"', open_paren)
    return len(src) if end < 0 else end + len(delimiter) + 2


def skip_preprocessor_line(src, i):
    """Index of the newline ending the directive at i (with continuations)."""
    while True:
        end = src.find('\n', i)
        if end < 0:
            return len(src)
        if src[end - 1] != '\\':
            return end
        i = end + 1


def at_line_start(src, i):
    j = i - 1
    while j >= 0 and src[j] in ' \t':
        j -= 1
    return j < 0 or src[j] == '\n'


IDENT_RE = re.compile(r'[A-Za-z_]\w*')
# A number with digit separators (1'000), exponents (1e-5, 0x1p+3) and suffixes.
NUMBER_RE = re.compile(r"\.?\d(?:[\w.']|[eEpP][+-])*")


def tokenize(src):
    tokens, i, line, n = [], 0, 1, len(src)
    while i < n:
        c = src[i]
        start = i
        if c == '\n':
            line += 1
            i += 1
            continue
        if c in ' \t\r\f\v':
            i += 1
            continue
        if src.startswith('//', i):
            i = src.find('\n', i)
            i = n if i < 0 else i
        elif src.startswith('/*', i):
            end = src.find('*/', i + 2)
            i = n if end < 0 else end + 2
        elif c == '#' and at_line_start(src, i):
            i = skip_preprocessor_line(src, i)
        elif c == '"':
            i = skip_quoted(src, i, '"')
            tokens.append(Token('"str"', line))
        elif c == "'":
            i = skip_quoted(src, i, "'")
            tokens.append(Token("'chr'", line))
        elif c.isdigit() or (c == '.' and i + 1 < n and src[i + 1].isdigit()):
            i = NUMBER_RE.match(src, i).end()
            tokens.append(Token('0', line))
        elif c.isalpha() or c == '_':
            i = IDENT_RE.match(src, i).end()
            word = src[start:i]
            if i < n and src[i] == '"' and word in RAW_STRING_PREFIXES:
                i = skip_raw_string(src, i)
                tokens.append(Token('"str"', line))
            elif i < n and src[i] in '"\'' and word in ('u8', 'u', 'U', 'L'):
                continue  # an encoding prefix: the literal is the next token
            else:
                tokens.append(Token(word, line))
        else:
            punct = next((p for p in MULTI_CHAR_PUNCT if src.startswith(p, i)), c)
            i += len(punct)
            tokens.append(Token(punct, line))
        line += src.count('\n', start, i)
    return tokens


# ---- Parsing: which braces open a function body.

def matching_close(tokens, i):
    """Index of the bracket closing the one at tokens[i]."""
    pairs = {'(': ')', '[': ']', '{': '}'}
    opener, closer, depth = tokens[i].text, pairs[tokens[i].text], 0
    for j in range(i, len(tokens)):
        if tokens[j].text == opener:
            depth += 1
        elif tokens[j].text == closer:
            depth -= 1
            if depth == 0:
                return j
    return len(tokens) - 1


def strip_template_and_attributes(header):
    """The header without leading template<...> clauses and [[attributes]]."""
    i = 0
    while i < len(header):
        if header[i].text == 'template' and i + 1 < len(header) and header[i + 1].text == '<':
            depth, i = 0, i + 1
            while i < len(header):
                t = header[i].text
                depth += (t == '<') - (t == '>') - 2 * (t == '>>')
                i += 1
                if depth <= 0:
                    break
        elif header[i].text == '[' and i + 1 < len(header) and header[i + 1].text == '[':
            while i < len(header) and not (header[i].text == ']' and i > 0 and header[i - 1].text == ']'):
                i += 1
            i += 1
        else:
            break
    return header[i:]


def top_level(header):
    """(index, token) pairs of the header outside (), [] and {}."""
    depth = 0
    for i, tok in enumerate(header):
        if tok.text in ')]}':
            depth -= 1
        if depth == 0:
            yield i, tok
        if tok.text in '([{':
            depth += 1


def lambda_introducer(header):
    """Index of a lambda's '[' in the header, or None (a subscript is not one)."""
    for i, tok in top_level(header):
        if tok.text != '[':
            continue
        before = header[i - 1].text if i > 0 else ''
        if not (IDENT_RE.fullmatch(before) or before in (')', ']', '"str"')):
            return i
    return None


def function_name(header):
    """The qualified name before the parameter list, or None."""
    top = list(top_level(header))
    for k, (i, tok) in enumerate(top):
        if tok.text == 'operator':
            symbol = ''.join(t.text for t in header[i + 1:])
            symbol = symbol.split('(')[0] if not symbol.startswith('()') else '()'
            return qualified_name(header, i, 'operator' + symbol), header[i].line
        if tok.text == '(' and k > 0:
            prev = header[i - 1]
            if IDENT_RE.fullmatch(prev.text) and prev.text not in NOT_A_NAME:
                return qualified_name(header, i - 1, prev.text), prev.line
    return None, None


def qualified_name(header, i, name):
    """name preceded by its A::B:: qualifiers and the ~ of a destructor."""
    if i >= 1 and header[i - 1].text == '~':
        name, i = '~' + name, i - 1
    while i >= 2 and header[i - 1].text == '::' and IDENT_RE.fullmatch(header[i - 2].text):
        name, i = header[i - 2].text + '::' + name, i - 2
    return name


def is_constructor_init_brace(header):
    """True when '{' after this header initializes a member (`a_{x}`)."""
    top = [t.text for _, t in top_level(header)]
    if ':' not in top or not header:
        return False
    colon = top.index(':')
    return ')' in top[:colon] and (IDENT_RE.fullmatch(header[-1].text) or header[-1].text == '>') \
        and header[-1].text not in FUNCTION_QUALIFIERS


def is_operator_symbol(header, i):
    """True for the '=' of `operator=` (not an initializer's)."""
    return i > 0 and header[i - 1].text == 'operator'


def looks_like_function_body(header):
    """True when a '{' after this header opens a function's body."""
    top = [t.text for i, t in top_level(header) if not is_operator_symbol(header, i)]
    if '(' not in top:
        return False
    last = header[-1].text
    if last == ')' or last in FUNCTION_QUALIFIERS or last == '}':
        return '=' not in top or lambda_introducer(header) is not None
    # A trailing return type: `auto f() -> T {`.
    return '->' in top and top.index('->') > top.index('(')


def classify_brace(header, scope):
    """What a '{' opens in a namespace, class or aggregate scope."""
    if scope != 'aggregate' and is_constructor_init_brace(header):
        return 'init'
    body = strip_template_and_attributes(header)
    first = [t.text for t in body[:3]]
    if scope != 'aggregate':
        if 'namespace' in first[:2] or (first[:1] == ['extern'] and first[1:2] == ['"str"']):
            return 'namespace'
        if any(word in first[:2] for word in ('class', 'struct', 'union')) and '(' not in first:
            return 'class'
        if 'enum' in first[:2]:
            return 'aggregate'
        if looks_like_function_body(body):
            return 'function'
    elif lambda_introducer(body) is not None and looks_like_function_body(body):
        return 'function'
    return 'aggregate'


def find_functions(tokens, path='<snippet>'):
    functions = []
    scan_scope(tokens, 0, len(tokens), 'namespace', path, functions)
    return functions


def scan_scope(tokens, begin, end, scope, path, functions):
    """Scans tokens[begin:end], the inside of a scope of the given kind."""
    header, i = [], begin
    separators = (';', ',') if scope == 'aggregate' else (';',)
    while i < end:
        tok = tokens[i]
        if tok.text == '{':
            close = matching_close(tokens, i)
            kind = classify_brace(header, scope)
            if kind == 'init':
                header = header + tokens[i:close + 1]
                i = close + 1
                continue
            if kind == 'function':
                record_function(header, tokens[close].line, path, functions)
            else:
                scan_scope(tokens, i + 1, close, kind, path, functions)
            header, i = [], close + 1
        elif tok.text in separators or tok.text == '}' or is_access_label(header, tok):
            header, i = [], i + 1
        elif tok.text in ('(', '['):
            close = matching_close(tokens, i)
            header = header + tokens[i:close + 1]
            i = close + 1
        else:
            header.append(tok)
            i += 1


def is_access_label(header, tok):
    """True at the ':' of `public:`, which ends a header like a ';'."""
    return tok.text == ':' and len(header) == 1 and header[0].text in ('public', 'private', 'protected')


def record_function(header, last_line, path, functions):
    body = strip_template_and_attributes(header)
    lam = lambda_introducer(body)
    if lam is not None:
        name = ' '.join(t.text for t in body[:lam] if t.text not in ('=', 'auto', 'const',
                                                                      'static', 'constexpr'))
        name, first_line = f'lambda {name}'.strip(), body[lam].line
    else:
        name, first_line = function_name(body)
    if name is None:
        name, first_line = '?', (body or header)[0].line
    functions.append(Function(path, name, first_line, last_line))


# ---- The command line.

def source_files(paths, excluded=()):
    excluded = tuple(os.path.normpath(p) for p in excluded)
    for path in paths:
        if os.path.isfile(path):
            yield path
            continue
        if not os.path.isdir(path):
            raise FileNotFoundError(path)
        for root, dirs, files in os.walk(path):
            dirs[:] = sorted(d for d in dirs if os.path.normpath(os.path.join(root, d)) not in excluded)
            for name in sorted(files):
                if name.endswith(SOURCE_SUFFIXES):
                    yield os.path.join(root, name)


def scan_files(paths, excluded=()):
    functions = []
    for path in source_files(paths, excluded):
        with open(path, encoding='utf-8', errors='replace') as f:
            functions += find_functions(tokenize(f.read()), path)
    return functions


def report(functions, limit, top):
    longest = sorted(functions, key=lambda f: (-f.length, f.path, f.first_line))
    too_long = [f for f in longest if f.length > limit]
    for f in too_long:
        print(f'{f.path}:{f.first_line}: {f.name} is {f.length} lines (limit {limit})')
    print(f'longest {min(top, len(longest))} of {len(functions)} functions:')
    for f in longest[:top]:
        print(f'  {f.length:5d}  {f.path}:{f.first_line}  {f.name}')
    if too_long:
        print(f'{len(too_long)} function(s) longer than {limit} lines: split them')
    return 1 if too_long else 0


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    parser.add_argument('paths', nargs='*', help='files or folders to scan')
    parser.add_argument('--limit', type=int, default=150, help='longest allowed function (lines)')
    parser.add_argument('--top', type=int, default=5, help='how many of the longest to print')
    parser.add_argument('--exclude', action='append', default=[], metavar='PATH',
                        help='a folder under PATH to skip (repeatable)')
    parser.add_argument('--self-test', action='store_true', help="run the scanner's own tests")
    args = parser.parse_args(argv)
    if args.self_test:
        sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
        from check_function_length_test import run_self_test
        return run_self_test()
    if not args.paths:
        parser.error('give at least one file or folder to scan')
    try:
        functions = scan_files(args.paths, args.exclude)
    except FileNotFoundError as e:
        print(f'check_function_length: no such file or folder: {e}', file=sys.stderr)
        return 2
    return report(functions, args.limit, args.top)


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
