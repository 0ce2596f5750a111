using System.Text;
using System.Text.Json;
using MongoDB.Driver;
using RabbitMQ.Client;
using RabbitMQ.Client.Events;

var builder = WebApplication.CreateBuilder(args);

builder.Services.AddHttpClient("catalog", client =>
{
    client.BaseAddress = new Uri(builder.Configuration["Services:Catalog"]!);
});
builder.Services.AddSingleton(new MongoClient(builder.Configuration.GetConnectionString("Mongo")));
builder.Services.AddSingleton<IConnection>(_ =>
    new ConnectionFactory { Uri = new Uri(builder.Configuration["RabbitMQ:Uri"]!) }.CreateConnection());

var app = builder.Build();

var api = app.MapGroup("/api/orders");

api.MapGet("/{id}", async (string id, MongoClient mongo) =>
{
    var orders = mongo.GetDatabase("orders").GetCollection<Order>("orders");
    var order = await orders.Find(o => o.Id == id).FirstOrDefaultAsync();
    return order is null ? Results.NotFound() : Results.Ok(order);
});

api.MapPost("/", async (Order order, MongoClient mongo, IHttpClientFactory http, IConnection rabbit) =>
{
    var catalog = http.CreateClient("catalog");
    var product = await catalog.GetFromJsonAsync<Product>($"/api/products/{order.Sku}");
    if (product is null)
    {
        return Results.BadRequest("unknown product");
    }

    await mongo.GetDatabase("orders").GetCollection<Order>("orders").InsertOneAsync(order);

    using var channel = rabbit.CreateModel();
    channel.QueueDeclare("orders.placed", durable: true, exclusive: false, autoDelete: false);
    var body = Encoding.UTF8.GetBytes(JsonSerializer.Serialize(order));
    channel.BasicPublish(exchange: "", routingKey: "orders.placed", basicProperties: null, body: body);
    return Results.Created($"/api/orders/{order.Id}", order);
});

var invoices = app.Services.GetRequiredService<IConnection>().CreateModel();
invoices.QueueDeclare("invoices.created", durable: true, exclusive: false, autoDelete: false);
var consumer = new EventingBasicConsumer(invoices);
consumer.Received += (_, ea) =>
    app.Logger.LogInformation("invoice issued: {Invoice}", Encoding.UTF8.GetString(ea.Body.ToArray()));
invoices.BasicConsume(queue: "invoices.created", autoAck: true, consumer: consumer);

app.Run();

record Order(string Id, string Sku, int Quantity, string Email);

record Product(string Sku, string Name, decimal Price);
