% mat_check.m — the Octave half of tests/cli/mat.sh, run in its $TMP: loads the .mat files
% mototake wrote and checks them against the CSV, the M-file and the JSON of the same take and
% options. Prints one "ok NAME" or "FAIL NAME: why" line per check.
1;

% cond: a function handle, so that an error (a variable missing from a file) fails this check
% alone and the others still run; why: a text or a handle giving one.
function chk(name, cond, why)
  try
    good = cond();
    if ~good && is_function_handle(why), why = why(); end
  catch err
    good = false;
    why = err.message;
  end
  if good, printf('ok %s\n', name); else printf('FAIL %s: %s\n', name, why); end
end

% A CSV of `take channels`: the header's names, the units row, the numbers (strtod, exact).
function [names, units, M] = readcsv(f)
  t = fileread(f);
  nl = find(t == "\n", 2);
  names = strsplit(t(1:nl(1) - 1), ',');
  units = strsplit(t(nl(1) + 1:nl(2) - 1), ',');
  body = t(nl(2) + 1:end);
  body(body == ',') = ' ';
  M = reshape(sscanf(body, '%g'), numel(names), [])';
end

% What the CSV holds of doubles x: printed "%.9g" as the CSV does, read back.
function v = nine(x)
  v = sscanf(sprintf('%.9g\n', x), '%g');
end

% The columns of a .mat in the order of a CSV's header (empty when one is missing).
function X = columns(S, names)
  X = [];
  for k = 1:numel(names)
    if ~isfield(S, names{k}), X = []; return; end
    X = [X, S.(names{k})];
  end
end

function ok = same_set(a, b)
  ok = isequal(sort(a(:)), sort(b(:)));
end

% the number values of "KEY": ... in a JSON text, in order (strtod: exact, unlike jsondecode)
function v = json_numbers(t, key)
  tok = regexp(t, ['"' key '": ([^,\s\]\}]+)'], 'tokens');
  v = str2double([tok{:}])';
end

% every channel column a rows x 1 double whose values are float32s (the take's channels are:
% takes/takechan.c), so "%.9g", the CSV's print, pins each one exactly
function good = double_float_columns(S, names, n)
  good = true;
  for k = 1:numel(names)
    x = S.(names{k});
    good = good && isa(x, 'double') && isequal(size(x), [n 1]) && (strcmp(names{k}, 'time') || isequal(double(single(x)), x));
  end
end

function good = units_match(S, names, units)
  good = true;
  for k = 1:numel(names), good = good && strcmp(S.units.(names{k}), units{k}); end
end

% meta: every row of the take's meta table (tab-separated key, value), keys made MATLAB names
function good = meta_matches(S, file)
  L = strsplit(strtrim(fileread(file)), "\n");
  good = numel(fieldnames(S.meta)) == numel(L);
  for k = 1:numel(L)
    kv = strsplit(L{k}, "\t");
    key = regexprep(kv{1}, '[^A-Za-z0-9_]', '_');
    if isempty(regexp(key, '^[A-Za-z]', 'once')), key = ['x' key]; end
    good = good && strcmp(S.meta.(key), strjoin(kv(2:end), "\t"));
  end
end

% the columns named in S.names against the CSV columns of those take names
function good = renamed_match(S, names, M)
  f = fieldnames(S.names);
  X = [];
  idx = [];
  for k = 1:numel(f)
    X = [X, S.(f{k})];
    idx(k) = find(strcmp(names, S.names.(f{k})));
  end
  good = isequal(nine(X'), reshape(M(:, idx)', [], 1));
end

function S = load_or_empty(file)
  try
    S = load(file);
  catch
    S = struct();
  end
end

own = {'units'; 'names'; 'meta'};
same_rows = @(S, nm, M) isequal(nine(columns(S, nm)'), reshape(M', [], 1));

%---- full rate, every channel
F = load_or_empty('full.mat');
[nm, un, M] = readcsv('full.csv');
n = size(M, 1);
chk('mat_full_variables', @() same_set(fieldnames(F), [nm(:); own]), 'the variables are not the CSV header plus units, names, meta');
chk('mat_full_double_columns', @() double_float_columns(F, nm, n), ...
    sprintf('not every channel is a %d x 1 double column of float32 values', n));
chk('mat_full_time_exact', @() isequal(F.time, (0:n - 1)' * 0.001), 'time is not step * 0.001 exactly');
chk('mat_full_matches_csv', @() same_rows(F, nm, M), 'the .mat printed to 9 digits is not the CSV');
chk('mat_units_match_csv', @() units_match(F, nm, un), 'units differ from the CSV units row');
chk('mat_meta_matches_take', @() meta_matches(F, 'meta.tsv'), 'meta is not the take''s metadata table');

%---- resampled at 300 Hz, 0.2 .. 0.9 s, some channels and --simhub
R = load_or_empty('rate.mat');
[nm, un, M] = readcsv('rate.csv');
n = size(M, 1);
chk('mat_rate_variables', @() same_set(fieldnames(R), [nm(:); own]) && isfield(R, 'SpeedKmh'), ...
    'the variables are not the CSV header (with SimHub''s) plus units, names, meta');
chk('mat_rate_time_exact', @() isequal(R.time, (60:60 + n - 1)' / 300), 'time is not q / 300 exactly from q = 60');
chk('mat_rate_matches_csv', @() same_rows(R, nm, M), 'the resampled .mat printed to 9 digits is not the CSV');

%---- hostile channel names made MATLAB names
N = load_or_empty('names.mat');
[nm, un, M] = readcsv('names.csv');
chk('mat_names_mapped', @() same_set(fieldnames(N), [{'time'; 'front_fx'; 'x2nd_gear'; 'xend'; 'speed'}; own]), ...
    @() ['variables: ' strjoin(fieldnames(N)', ' ')]);
want = struct('time', 'time', 'front_fx', 'front.fx', 'x2nd_gear', '2nd gear', 'xend', 'end', 'speed', 'speed');
chk('mat_names_struct', @() isequal(N.names, want), 'names is not the mapping MATLAB name -> the take''s name');
chk('mat_names_match_csv', @() renamed_match(N, nm, M), 'a renamed channel''s values differ from its CSV column');
chk('mat_meta_keys_made_distinct', @() strcmp(N.meta.a_b, 'one') && strcmp(N.meta.a_b_2, 'two'), ...
    'meta keys a.b and a_b are not meta.a_b and meta.a_b_2');

%---- the linearisation: NAME.mat against NAME.m and NAME.json
S = load_or_empty('Linear_200kph_Road_to_Steer.mat');
Linear_200kph_Road_to_Steer;   % the M-file: MatrixA .. MatrixD
chk('mat_lin_abcd_match_mfile', @() isequal(S.A, MatrixA) && isequal(S.B, MatrixB) && isequal(S.C, MatrixC) && ...
    isequal(S.D, MatrixD) && isa(S.A, 'double') && isequal(size(S.B), [38 2]) && isequal(size(S.C), [1 38]), ...
    'A, B, C, D are not the M-file''s bit for bit');
t = fileread('Linear_200kph_Road_to_Steer.json');
J = jsondecode(t);
chk('mat_lin_names_match_json', @() isequal(S.states, {J.states.name}') && isequal(S.inputs, {J.inputs.name}') && ...
    isequal(S.outputs, {J.outputs.name}') && isequal(S.state_units, {J.states.units}') && ...
    isequal(S.input_units, {J.inputs.units}') && isequal(S.output_units, {J.outputs.units}'), ...
    'the names or units are not the JSON''s');
parts = strsplit(t, '"step_roots"');
ev = complex(json_numbers(parts{1}, 're'), json_numbers(parts{1}, 'im'));
sr = complex(json_numbers(parts{2}, 're'), json_numbers(parts{2}, 'im'));
chk('mat_lin_eigenvalues_match_json', @() isequal(S.eigenvalues, ev) && iscomplex(S.eigenvalues) && isequal(S.step_roots, sr), ...
    'eigenvalues or step_roots are not the JSON''s bit for bit');
chk('mat_lin_operating_point_match_json', @() isequal([S.x0; S.u0; S.y0], json_numbers(t, 'value')) && ...
    isequal([S.state_perturbations; S.input_perturbations], json_numbers(t, 'perturbation')), ...
    'x0, u0, y0 or the perturbations are not the JSON''s values bit for bit');
time0 = json_numbers(t, 'time')(1);
chk('mat_lin_speed_loop_time', @() abs(S.speed - 200 / 3.6) < 0.1 && strcmp(S.loop, J.loop) && S.time == time0 && ...
    strcmp(S.title, J.title), @() sprintf('speed %g m/s (200 km/h wanted), loop %s, time %.17g', S.speed, S.loop, S.time));
