using System;
using System.Collections.Generic;
using System.Linq;
using System.Threading;
using System.Threading.Tasks;

namespace CodeTok.Samples
{
    /// <summary>Retries an async operation with exponential back-off.</summary>
    public sealed class RetryPolicy
    {
        private readonly int _maxAttempts;
        private readonly TimeSpan _baseDelay;

        public RetryPolicy(int maxAttempts = 3, TimeSpan? baseDelay = null)
        {
            if (maxAttempts < 1) throw new ArgumentOutOfRangeException(nameof(maxAttempts));
            _maxAttempts = maxAttempts;
            _baseDelay = baseDelay ?? TimeSpan.FromMilliseconds(100);
        }

        public async Task<T> ExecuteAsync<T>(Func<CancellationToken, Task<T>> action,
                                             CancellationToken ct = default)
        {
            var errors = new List<Exception>();
            for (var attempt = 1; attempt <= _maxAttempts; attempt++)
            {
                try
                {
                    return await action(ct).ConfigureAwait(false);
                }
                catch (Exception ex) when (ex is not OperationCanceledException)
                {
                    errors.Add(ex);
                    var delay = TimeSpan.FromTicks(_baseDelay.Ticks << (attempt - 1));
                    Console.WriteLine($"attempt {attempt}/{_maxAttempts} failed: {ex.Message}; waiting {delay.TotalMilliseconds:F0} ms");
                    await Task.Delay(delay, ct);
                }
            }
            throw new AggregateException($"gave up after {_maxAttempts} attempts", errors);
        }

        public override string ToString() => @"RetryPolicy(""verbatim"" \n not an escape)";

        public static int[] Squares(IEnumerable<int> xs) => xs.Where(x => x % 2 == 0).Select(x => x * x).ToArray();
    }
}
