require "faraday"

# Asks the shipping service for a delivery quote.
class ShippingClient
  def initialize
    @conn = Faraday.new(url: ENV.fetch("SHIPPING_URL", "http://localhost:8000")) do |f|
      f.response :json
    end
  end

  def quote(product)
    @conn.get("/api/quotes", sku: product.sku, weight: product.weight_grams).body
  end
end
