module Api
  class ShippingQuotesController < ApplicationController
    def show
      product = Product.find_by(sku: params[:id])
      render json: ShippingClient.new.quote(product)
    end
  end
end
