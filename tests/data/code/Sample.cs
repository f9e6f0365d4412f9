using System;

namespace Demo
{
    /// <summary>Says hello.</summary>
    [Serializable]
    public class Greeter
    {
        public string Name { get; set; }

        public string Greet(int count)
        {
            var verbatim = @"C:\path ""quoted""";
            var raw = """raw "text" here""";
            return $"Hello {Name,5:F2} x{count}!";
        }
    }
}
